"""The kinds that read the content of modules, not only their imports: thin endpoints
(INW012, `endpoint*`), blocking calls in `async def` (INW013, `blocking_*`) and what only the
composition root may build (INW015, `role_*`); `content_names` is how every content kind
(these and those of `orm` and `ports`) resolves a name written in a module."""
