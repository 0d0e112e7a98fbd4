"""Resolve the plugin's settings: marker > command line > ini > default.

Pure functions, no pytest import, so the precedence rules are unit-tested
without running pytest and the plugin stays a thin adapter. Every bad value
raises :class:`SettingError`, whose message names the option and the value;
the plugin turns it into ``pytest.UsageError`` (options, ini) or a failed
test (a marker's keywords).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..model import DEFAULT_OK
from ..settings import CheckSettings, SettingError, parse_allow, parse_pages, parse_ratio

#: Keywords the ``textlayer`` marker accepts, in the order the docs list them.
MARKER_KEYWORDS: tuple[str, ...] = (
    "allow",
    "lang",
    "pages",
    "min_glyphs",
    "max_bad_glyphs",
    "model",
)

#: The signature registered with pytest (`pytest --markers` shows it).
MARKER_SIGNATURE = (
    "textlayer(allow=(), lang=None, pages=None, min_glyphs=0, max_bad_glyphs=0.10, model=None): "
    "check the PDFs this test writes or checks; with --textlayer a bad page fails the test"
)

_LANG = re.compile(r"^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})?$")


@dataclass(frozen=True)
class RawOptions:
    """The textual values of one source (command line or ini); None means not given."""

    allow: str | Sequence[str] | None = None
    lang: str | None = None
    max_bad_glyphs: str | None = None
    model: str | None = None


def parse_lang(value: object, where: str) -> str | None:
    """An ISO 639 code such as `en`, `fra`, `pt-BR`; empty means any language."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise SettingError(f"{where}: {value!r} is not a language code")
    text = value.strip()
    if not text:
        return None
    if not _LANG.match(text):
        raise SettingError(f"{where}: {value!r} is not an ISO 639 language code such as en or fra")
    return text


def parse_model(value: object, where: str, base: Path | None = None) -> Path | None:
    """A letter-pair model file written by `textlayer fit`; it must exist."""
    if value is None or value == "":
        return None
    if not isinstance(value, (str, Path)):
        raise SettingError(f"{where}: {value!r} is not a path")
    path = Path(value).expanduser()
    if base is not None and not path.is_absolute():
        path = base / path
    if not path.is_file():
        raise SettingError(f"{where}: model file {str(value)!r} does not exist")
    from ..errors import TextLayerError
    from ..lang.langmodel import LetterPairModel

    try:  # a bad model is a usage error now, not a crash in every check later
        LetterPairModel.load(path)
    except (TextLayerError, ValueError, OSError) as exc:
        raise SettingError(f"{where}: {exc}") from None
    return path


def parse_min_glyphs(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SettingError(f"{where}: {value!r} is not a whole number of glyphs >= 0")
    return value


def parse_pages_setting(value: object, where: str) -> frozenset[int] | None:
    """`"1-3,7"`, `3`, or an iterable of page numbers (1-based)."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise SettingError(f"{where}: {value!r} is not a page selection")
    try:
        if isinstance(value, int):
            return parse_pages([value])
        if isinstance(value, (str, Iterable)):
            return parse_pages(value)
    except (TypeError, ValueError) as exc:
        raise SettingError(f"{where}: {value!r}: {exc}") from None
    raise SettingError(f"{where}: {value!r} is not a page selection (use 1-3,7 or a list)")


def apply_source(
    settings: CheckSettings, raw: RawOptions, names: Mapping[str, str], base: Path | None = None
) -> CheckSettings:
    """These settings with the values one source gives; `names` says how the user spells each."""
    changes: dict[str, object] = {}
    if raw.allow is not None and raw.allow != [] and raw.allow != "":
        changes["ok_verdicts"] = DEFAULT_OK | parse_allow(raw.allow, names["allow"])
    if raw.lang is not None:
        changes["lang"] = parse_lang(raw.lang, names["lang"])
    if raw.max_bad_glyphs is not None and str(raw.max_bad_glyphs).strip():
        changes["max_bad_glyphs"] = parse_ratio(raw.max_bad_glyphs, names["max_bad_glyphs"])
    if raw.model is not None:
        changes["model"] = parse_model(raw.model, names["model"], base)
    return settings.replace(**changes) if changes else settings


#: How each setting is spelled on the command line and in the ini file.
CLI_NAMES = {
    "allow": "--textlayer-allow",
    "lang": "--textlayer-lang",
    "max_bad_glyphs": "--textlayer-max-bad-glyphs",
    "model": "--textlayer-model",
}
INI_NAMES = {key: f"ini textlayer_{key}" for key in CLI_NAMES}


def resolve_base(
    cli: RawOptions,
    ini: RawOptions,
    *,
    cli_dir: Path | None = None,
    ini_dir: Path | None = None,
    default: CheckSettings | None = None,
) -> CheckSettings:
    """Command line over ini over default: the settings of every check in the session.

    Relative model paths resolve against where they were written: the
    invocation directory for the command line, the ini file's directory for
    the ini file.
    """
    settings = default or CheckSettings()
    settings = apply_source(settings, ini, INI_NAMES, ini_dir)
    return apply_source(settings, cli, CLI_NAMES, cli_dir)


def apply_marker(
    settings: CheckSettings,
    args: Sequence[object],
    kwargs: Mapping[str, object],
    base: Path | None = None,
) -> CheckSettings:
    """The session's settings narrowed by a ``@pytest.mark.textlayer(...)``: the marker wins.

    `allow` replaces the allowed verdicts of the command line and ini (the
    marker states what this test accepts); every other keyword replaces its
    setting. A relative `model` path resolves against `base` (the rootdir).
    """
    if args:
        raise SettingError(
            f"@pytest.mark.textlayer takes keywords only ({', '.join(MARKER_KEYWORDS)}), "
            f"not positional arguments {tuple(args)!r}"
        )
    unknown = sorted(set(kwargs) - set(MARKER_KEYWORDS))
    if unknown:
        raise SettingError(
            f"@pytest.mark.textlayer: unknown keyword(s) {', '.join(unknown)} "
            f"(known: {', '.join(MARKER_KEYWORDS)})"
        )
    return apply_overrides(settings, kwargs, "@pytest.mark.textlayer", base)


def apply_overrides(
    settings: CheckSettings, kwargs: Mapping[str, object], where: str, base: Path | None = None
) -> CheckSettings:
    """Apply known keyword overrides (marker or call keywords) to settings."""
    changes: dict[str, object] = {}
    for key, value in kwargs.items():
        name = f"{where}({key}=...)"
        if key == "allow":
            changes["ok_verdicts"] = DEFAULT_OK | parse_allow(value or (), name)  # type: ignore[arg-type]
        elif key == "lang":
            changes["lang"] = parse_lang(value, name)
        elif key == "pages":
            changes["pages"] = parse_pages_setting(value, name)
        elif key == "min_glyphs":
            changes["min_glyphs"] = parse_min_glyphs(value, name)
        elif key == "max_bad_glyphs":
            changes["max_bad_glyphs"] = parse_ratio(value, name)
        elif key == "model":
            changes["model"] = parse_model(value, name, base)
        else:
            raise SettingError(f"{where}: unknown keyword {key!r}")
    return settings.replace(**changes) if changes else settings


def describe(settings: CheckSettings) -> str:
    """One line for the report header: what the gate accepts."""
    ok = ",".join(sorted(v.value for v in settings.ok_verdicts))
    parts = [f"ok={ok}", f"max-bad-glyphs={settings.max_bad_glyphs:g}"]
    if settings.lang:
        parts.append(f"lang={settings.lang}")
    if settings.model:
        parts.append(f"model={settings.model}")
    return " ".join(parts)


@dataclass
class CollectScope:
    """Which PDF files become test items under ``--textlayer``: only those the user named.

    Named means given on the command line, found under a directory given on
    the command line, or matched by a `textlayer_paths` glob. PDFs met while
    walking `testpaths` or the current directory are left alone, so test
    data that is broken on purpose stays out of the gate.
    """

    invocation_dir: Path
    globs: list[str] = field(default_factory=list)
    glob_root: Path = Path(".")
    files: set[Path] = field(default_factory=set)
    dirs: list[Path] = field(default_factory=list)
    #: Directories on the way to a named path: walked even where norecursedirs says no.
    wanted_dirs: set[Path] = field(default_factory=set)

    def name_argument(self, arg: str) -> None:
        """A command-line argument (``path`` or ``path::test``)."""
        target = _resolved(self.invocation_dir / arg.split("::")[0])
        if target is None:
            return  # a link loop or a folder that cannot be searched: pytest itself reports it
        if target.is_dir():
            self.dirs.append(target)
            self.wanted_dirs.add(target)
        else:
            self.files.add(target)
        self.wanted_dirs.update(target.parents)

    def expand_globs(self, args: Iterable[str]) -> list[str]:
        """The files the globs match, named; returns those `args` do not already hold."""
        have = {_resolved(self.invocation_dir / a.split("::")[0]) for a in args}
        new: list[str] = []
        for pattern in self.globs:
            for match in sorted(self.glob_root.glob(pattern)):
                path = match.resolve()
                if not path.is_file():
                    continue
                self.files.add(path)
                self.wanted_dirs.update(path.parents)
                if path not in have:
                    have.add(path)
                    new.append(str(path))
        return new

    def should_collect(self, path: Path) -> bool:
        if path.suffix.lower() != ".pdf":
            return False
        path = path.resolve()
        if path in self.files or any(d in path.parents for d in self.dirs):
            return True
        rel = _relative(path, self.glob_root)
        return rel is not None and any(fnmatch.fnmatch(rel, g) for g in self.globs)

    def walks_into(self, directory: Path, ignored: Iterable[str] | None = None) -> bool:
        """True for a directory on the way to a named path, unless the user --ignore'd it."""
        directory = directory.resolve()
        if directory not in self.wanted_dirs:
            return False
        return all((self.invocation_dir / p).resolve() != directory for p in ignored or ())

    def display(self, path: Path) -> str:
        """The path as the user would type it: relative to where pytest was started."""
        rel = _relative(path.resolve(), self.invocation_dir)
        return rel if rel is not None else str(path)


def _relative(path: Path, root: Path) -> str | None:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


def parse_timeout(cli: str | None, cli_name: str, ini: str | None, ini_name: str) -> float | None:
    """The collected-PDF time limit: command line over ini over the CLI's default; 0: none."""
    from ..run.limits import DEFAULT_TIMEOUT

    value, where = (cli, cli_name) if cli not in (None, "") else (ini, ini_name)
    if value in (None, ""):
        return DEFAULT_TIMEOUT
    try:
        seconds = float(str(value))
    except ValueError:
        raise SettingError(f"{where}: expected seconds, not {value!r}") from None
    if seconds < 0 or seconds != seconds:
        raise SettingError(f"{where}: expected 0 (no limit) or more seconds, not {value!r}")
    return seconds or None


def _resolved(path: Path) -> Path | None:
    """`path` resolved, or None where it cannot be looked up (a symlink loop, a folder
    without search permission): collection must not crash on what pytest reports itself."""
    try:
        target = path.resolve()
        target.is_dir()  # raises for a path inside a folder that cannot be searched
    except (OSError, RuntimeError):
        return None
    return target
