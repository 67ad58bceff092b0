"""Every kata's text, one folder per kata (kata.toml, en.toml, zh.toml), and kata's own messages (ui/)."""
