from acme.api.routes.health import STATUS  # the planted violation: schemas import routes


def describe() -> str:
    return STATUS
