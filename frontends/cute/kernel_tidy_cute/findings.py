"""What a rule reports: findings with byte offsets into the file, and fixes."""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


@dataclass
class Edit:
    """Replaces the bytes [begin, end) of the file with text."""
    begin: int
    end: int
    text: str

    def to_json(self, data: bytes) -> Dict[str, Any]:
        # "replaced": the bytes the edit replaces, as the rule saw them; the driver
        # refuses the file when the bytes at offset differ (positions not agreed on).
        return {"offset": self.begin, "length": self.end - self.begin, "text": self.text,
                "replaced": data[self.begin:self.end].decode("utf-8", "replace")}


@dataclass
class Fix:
    """The edits of a fix; an unsafe fix says why in reason."""
    edits: List[Edit]
    safe: bool = True
    reason: str = ""

    def to_json(self, data: bytes) -> Dict[str, Any]:
        return {"kind": "safe" if self.safe else "unsafe", "reason": self.reason,
                "edits": [e.to_json(data) for e in self.edits]}


@dataclass
class Note:
    message: str
    offset: int


@dataclass
class Finding:
    rule: str
    message: str
    begin: int
    end: int
    fix: Optional[Fix] = None
    no_fix_reason: str = ""
    notes: List[Note] = field(default_factory=list)

    def to_json(self, data: bytes) -> Dict[str, Any]:
        """The finding in the protocol; data is the file as stored."""
        return {"rule": self.rule, "message": self.message, "offset": self.begin,
                "end_offset": self.end,
                "fix": self.fix.to_json(data) if self.fix else None,
                "no_fix_reason": "" if self.fix else self.no_fix_reason,
                "notes": [{"message": n.message, "offset": n.offset} for n in self.notes]}
