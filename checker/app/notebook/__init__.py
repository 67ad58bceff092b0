"""The notebook front end: `import kata` (kata.py at the top level) is its surface. front.py holds the functions
and the `%%kata` magic's work, magic.py parses the magic's line, cells.py builds a file from the cells that define
a kata's entry point, client.py and server.py are the kernel's warm checker."""
