"""`inwards check`: the options, declared once (`options.py`) for the typer signature
(`command.py`) and the typer-free fast path; the run that yields a `CheckOutcome`
(`run.py`); the report in the asked format and where it goes (`output.py`); the command
itself (`entry.py`), which at a uv workspace root checks each configuration
(`workspace.py`) and with --watch checks on every save (`watch.py`); and `--explain`
(`why.py`). Each imports only the ones named before it in `entry.py`'s order: none imports
another that imports it back."""
