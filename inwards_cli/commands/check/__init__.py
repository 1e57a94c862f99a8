"""`inwards check`, a room of its own. Its modules, each importing only those listed
before it: `options.py` (the options, declared once, and the typer-free parser of the fast
path), `why.py` (`--explain`), `run.py` (one check, a `CheckOutcome`), `output.py` (the
report in the asked format, and where it goes), `watch.py` (`--watch`), `workspace.py` (a
uv workspace root), `entry.py` (the command: `run_check`), `command.py` (the typer
signature, built from `options.py`)."""
