from collections.abc import Callable
from typing import Any

def scan(
    data: bytes, operands: Callable[[bytes, bytes], tuple[Any, ...]]
) -> tuple[list[tuple[bytes, Any]], list[bytes]] | None: ...
