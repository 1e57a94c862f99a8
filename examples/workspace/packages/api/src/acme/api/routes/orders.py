from acme.api.schemas.order import as_json
from acme.core.services.checkout import place


def post_order(number: str, total_cents: int) -> dict[str, object]:
    return as_json(place(number, total_cents))
