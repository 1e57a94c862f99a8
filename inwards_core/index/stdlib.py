"""The names of the standard library's top-level modules, for telling stdlib imports apart.

`STDLIB_MODULES` is the union of `sys.stdlib_module_names` of CPython 3.11, 3.12, 3.13 and 3.14,
so a project is classified the same whichever of those versions runs inwards, and modules that
later versions removed (distutils, imp, asynchat, asyncore, smtpd in 3.12; cgi, cgitb, crypt,
telnetlib, lib2to3 and the rest of PEP 594 in 3.13) still count as the standard library.

How it was produced (once, by hand; regenerate the same way when a new CPython ships):
the 3.11, 3.12 and 3.13 parts are `sorted(sys.stdlib_module_names)` printed by CPython 3.11.7,
3.12.1 and 3.13.0; the 3.14 part adds the names CPython 3.14's `Python/stdlib_module_names.h`
has beyond 3.13 (_apple_support, _hmac, _py_warnings, _remote_debugging, _types, _zstd,
annotationlib, compression). The union was sorted and wrapped below. A test checks that the
running interpreter's own `sys.stdlib_module_names` is contained in it.
"""

from __future__ import annotations

# Whitespace-separated, sorted; a string keeps the 327 names compact and diff-friendly.
_NAMES = """
__future__ _abc _aix_support _android_support _apple_support _ast _asyncio _bisect _blake2
_bootsubprocess _bz2 _codecs _codecs_cn _codecs_hk _codecs_iso2022 _codecs_jp _codecs_kr
_codecs_tw _collections _collections_abc _colorize _compat_pickle _compression _contextvars
_crypt _csv _ctypes _curses _curses_panel _datetime _dbm _decimal _elementtree _frozen_importlib
_frozen_importlib_external _functools _gdbm _hashlib _heapq _hmac _imp _interpchannels
_interpqueues _interpreters _io _ios_support _json _locale _lsprof _lzma _markupbase _md5 _msi
_multibytecodec _multiprocessing _opcode _opcode_metadata _operator _osx_support _overlapped
_pickle _posixshmem _posixsubprocess _py_abc _py_warnings _pydatetime _pydecimal _pyio _pylong
_pyrepl _queue _random _remote_debugging _scproxy _sha1 _sha2 _sha256 _sha3 _sha512 _signal
_sitebuiltins _socket _sqlite3 _sre _ssl _stat _statistics _string _strptime _struct
_suggestions _symtable _sysconfig _thread _threading_local _tkinter _tokenize _tracemalloc
_types _typing _uuid _warnings _weakref _weakrefset _winapi _wmi _zoneinfo _zstd abc aifc
annotationlib antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb
binascii bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop
collections colorsys compileall compression concurrent configparser contextlib contextvars copy
copyreg crypt csv ctypes curses dataclasses datetime dbm decimal difflib dis distutils doctest
email encodings ensurepip enum errno faulthandler fcntl filecmp fileinput fnmatch fractions
ftplib functools gc genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq hmac
html http idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json keyword
lib2to3 linecache locale logging lzma mailbox mailcap marshal math mimetypes mmap modulefinder
msilib msvcrt multiprocessing netrc nis nntplib nt ntpath nturl2path numbers opcode operator
optparse os ossaudiodev pathlib pdb pickle pickletools pipes pkgutil platform plistlib poplib
posix posixpath pprint profile pstats pty pwd py_compile pyclbr pydoc pydoc_data pyexpat queue
quopri random re readline reprlib resource rlcompleter runpy sched secrets select selectors
shelve shlex shutil signal site smtpd smtplib sndhdr socket socketserver spwd sqlite3
sre_compile sre_constants sre_parse ssl stat statistics string stringprep struct subprocess
sunau symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios textwrap this
threading time timeit tkinter token tokenize tomllib trace traceback tracemalloc tty turtle
turtledemo types typing unicodedata unittest urllib uu uuid venv warnings wave weakref
webbrowser winreg winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo
"""

STDLIB_MODULES: frozenset[str] = frozenset(_NAMES.split())


def is_stdlib(name: str) -> bool:
    """Whether the dotted `name` (`os.path`, `xml.etree.ElementTree`) is in the standard
    library, judged by its top-level segment (`__future__`, `_thread`, ... count too)."""
    return name.partition(".")[0] in STDLIB_MODULES
