"""The site's own error pages (templates/404.html, 403.html, 500.html), as a guest meets them."""

from __future__ import annotations

import pytest
from django.test import override_settings


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "said"), [("en", "Not found"), ("ja", "見つかりません")])
def test_a_revoked_link_s_page_is_the_site_s_own_in_the_guest_s_language(client, language, said):
    # What a guest meets after the host replaces a link: a page that reads on a phone.
    with override_settings(DEBUG=False):
        response = client.get("/g/1/no-such-token/", HTTP_ACCEPT_LANGUAGE=language)
    page = response.content.decode()
    assert response.status_code == 404
    assert f"<h1>{said}</h1>" in page and 'name="viewport"' in page
