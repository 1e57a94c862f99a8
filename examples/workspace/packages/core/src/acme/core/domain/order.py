from dataclasses import dataclass


@dataclass(frozen=True)
class Order:
    number: str
    total_cents: int
