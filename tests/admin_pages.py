"""The admin's pages for the tests: a row's page, and the check that a page shows and changes
nothing."""

from __future__ import annotations

from django.db.models import Model
from django.urls import reverse


def admin_url(obj_or_model: Model | type[Model], view: str) -> str:
    opts = obj_or_model._meta
    name = f"admin:{opts.app_label}_{opts.model_name}_{view}"
    if view in ("changelist", "add"):
        return reverse(name)
    return reverse(name, args=[obj_or_model.pk])


def stored(obj: Model) -> dict[str, object]:
    return type(obj).objects.filter(pk=obj.pk).values().get()


def edited_form(obj: Model) -> dict[str, str]:
    """A change form as a tampering browser would send it: every field given a new value."""
    data = {field: "tampered" for field in stored(obj) if field != "id"}
    return data | {"_save": "Save"}


def assert_view_only(admin_client, obj: Model) -> None:
    """What "view only" means for one record, checked through the admin as a superuser."""
    model = type(obj)
    before, count = stored(obj), model.objects.count()

    changelist = admin_client.get(admin_url(model, "changelist"))
    assert changelist.status_code == 200
    assert admin_url(model, "add") not in changelist.content.decode()  # no "Add" button

    page = admin_client.get(admin_url(obj, "change"))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="_save"' not in html and 'name="_continue"' not in html
    assert admin_url(obj, "delete") not in html
    assert admin_client.post(admin_url(obj, "change"), edited_form(obj)).status_code == 403

    assert admin_client.get(admin_url(model, "add")).status_code == 403
    assert admin_client.post(admin_url(model, "add"), edited_form(obj)).status_code == 403

    assert admin_client.get(admin_url(obj, "delete")).status_code == 403
    assert admin_client.post(admin_url(obj, "delete"), {"post": "yes"}).status_code == 403
    # Nor the changelist's bulk "Delete selected" action.
    admin_client.post(
        admin_url(model, "changelist"),
        {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"},
    )

    assert stored(obj) == before
    assert model.objects.count() == count
