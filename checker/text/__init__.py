"""The text: the catalog and every word kata says, in English and Chinese, read from content/ (text as data).

`catalog` lists the katas (each is a folder under content/ with a kata.toml), `content` reads a kata's words in
the learner's language (and keeps translations current: `python -m checker.text.content status`), `i18n` picks
the language and translates kata's own messages (`tr`), `tomlcache` keeps the parsed TOML between runs, `cjk`
breaks mixed Chinese and code into lines. Beneath the judge and the app; it imports neither, nor torch.
"""
