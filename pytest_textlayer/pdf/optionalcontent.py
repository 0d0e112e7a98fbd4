"""Optional content: which layers (OCGs) a page's default view hides.

A PDF may keep text or a scan in a layer that is off by default (an OCR
layer switched off, a watermark); what a reader shows by default is what
counts, so the walk treats drawing inside such a layer as hidden. Groups
off in the document's default configuration (/OCProperties /D /OFF) are
read once per walk; a form XObject (/OC) or a marked-content sequence
(BDC /OC) names the group or membership dictionary it belongs to.
"""

from __future__ import annotations

from typing import Any


def off_groups(pdf: Any) -> set[Any]:
    """Objgens of the optional-content groups listed OFF in the default configuration."""
    import pikepdf

    try:
        props = pdf.Root.get("/OCProperties")
        default = props.get("/D") if isinstance(props, pikepdf.Dictionary) else None
        off = default.get("/OFF") if isinstance(default, pikepdf.Dictionary) else None
        if isinstance(off, pikepdf.Array):
            return {g.objgen for g in off if isinstance(g, pikepdf.Dictionary)}
    except (pikepdf.PdfError, AttributeError, TypeError):
        pass
    return set()


class OptionalContent:
    """The walker's optional-content questions (the walker sets :attr:`off_groups`)."""

    #: Optional-content groups that are off in the default configuration (objgens).
    off_groups: set[Any]

    def ocg_off(self, oc: Any) -> bool:
        """Is this optional-content group (or membership dictionary) off by default?"""
        import pikepdf

        if not self.off_groups or not isinstance(oc, pikepdf.Dictionary):
            return False
        if oc.get("/Type") == pikepdf.Name.OCMD:
            groups = oc.get("/OCGs")
            members = list(groups) if isinstance(groups, pikepdf.Array) else [groups]
            keys = [m.objgen for m in members if isinstance(m, pikepdf.Dictionary)]
            return bool(keys) and all(k in self.off_groups for k in keys)  # AnyOn, the default
        return oc.objgen in self.off_groups

    def is_hidden_oc(self, args: Any, resources: Any) -> bool:
        import pikepdf

        if not self.off_groups or len(args) < 2 or args[0] != "/OC":
            return False
        props = args[1]
        if isinstance(props, str):
            table = resources.get("/Properties") if resources is not None else None
            props = table.get(props) if isinstance(table, pikepdf.Dictionary) else None
        return self.ocg_off(props)
