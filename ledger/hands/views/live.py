"""The table's stream: what the other phones at a table save, pushed to this one."""

from __future__ import annotations

from django.http import Http404, StreamingHttpResponse
from django.views.decorators.http import require_GET

from games.models import Shoe
from shoebook.base.live import stream_response
from shoebook.base.roles import AuthenticatedHttpRequest, table_staff_required


@table_staff_required
@require_GET
def shoe_live(request: AuthenticatedHttpRequest, shoe_id: int) -> StreamingHttpResponse:
    """``shoe:<id>``: each hand or coup saved, undone or corrected and each seat change, with
    the next and last hand numbers and the seating (for the staff only, like the table)."""
    if not Shoe.objects.filter(pk=shoe_id).exists():
        raise Http404
    return stream_response(request, [f"shoe:{shoe_id}"])
