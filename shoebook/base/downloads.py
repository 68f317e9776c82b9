"""Every download's file name, made safe once: a name the host typed (a night's, a guest's) keeps
its date and its words whatever characters it holds."""

from __future__ import annotations

import re
from io import BytesIO
from urllib.parse import quote

from django.http import FileResponse

# Path separators would cut the name (a browser keeps what follows the last one); control
# characters cannot be in a header.
UNSAFE = re.compile(r"[/\\\x00-\x1f\x7f]")


def safe_filename(name: str) -> str:
    """The name with what would cut or break it replaced by ``_``, the rest as typed."""
    return UNSAFE.sub("_", name).strip() or "download"


def content_disposition(filename: str) -> str:
    """An attachment's header, the name in both forms (RFC 6266): names may be Japanese."""
    filename = safe_filename(filename)
    ascii_name = filename.encode("ascii", "replace").decode().replace('"', "'")
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename)}"


def file_response(content: bytes, filename: str, content_type: str) -> FileResponse:
    """Bytes as a download under a safe name."""
    return FileResponse(
        BytesIO(content),
        as_attachment=True,
        filename=safe_filename(filename),
        content_type=content_type,
    )
