"""Values every part of inwards shares: positions, findings and reports (`findings`), the
facts read from a file (`facts`), and how a message quotes project text (`quoting`)."""
