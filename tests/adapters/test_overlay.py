"""`OverlaidFiles`: given contents stand for the disk, and a given file that isn't there is
listed as the disk adapter would list it (never inside a directory every listing skips)."""

from __future__ import annotations

from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.adapters.overlay import OverlaidFiles


def test_given_contents_are_read_and_new_files_listed_where_a_listing_would() -> None:
    disk = InMemoryProjectFiles({"src/shop/a.py": "import os\n"})
    overlaid = OverlaidFiles(
        disk,
        {
            "src/shop/a.py": b"import sys\n",
            "src/shop/new/b.py": b"",
            "src/.hidden/c.py": b"",
            "src/shop/__pycache__/d.py": b"",
        },
    )
    assert overlaid.read_bytes("src/shop/a.py") == b"import sys\n"
    listing = overlaid.listing("src")
    assert listing.files == ("src/shop/a.py", "src/shop/new/b.py")
    assert "src/shop/new" in listing.directories
    assert overlaid.listing("other").files == ()
