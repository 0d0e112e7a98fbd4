from collections.abc import Callable
from typing import Any

def run(
    walker: Any, ops: list[tuple[bytes, Any]], i: int, state: Any, resources: Any,
    tm: tuple[float, ...], tlm: tuple[float, ...], depth: int, type3: bool,
    fonts: dict[str, Any], stack: list[Any], marked: list[Any], spans: list[Any],
) -> tuple[int, Any, Any, Any]: ...
def rules(
    show: Callable[..., Any], swallowed: tuple[type[BaseException], ...],
    identity: tuple[float, ...],
) -> None: ...
