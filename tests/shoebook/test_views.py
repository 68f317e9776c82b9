"""The site's own error pages (templates/404.html, 403.html, 500.html), as a guest meets them."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import reverse


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "said"), [("en", "Not found"), ("ja", "見つかりません")])
def test_a_revoked_link_s_page_is_the_site_s_own_in_the_guest_s_language(client, language, said):
    # What a guest meets after the host replaces a link: a page that reads on a phone.
    with override_settings(DEBUG=False):
        response = client.get("/g/1/no-such-token/", HTTP_ACCEPT_LANGUAGE=language)
    page = response.content.decode()
    assert response.status_code == 404
    assert f"<h1>{said}</h1>" in page and 'name="viewport"' in page


@pytest.mark.django_db
def test_logging_out_asks_the_browser_to_forget_the_site_s_pages_and_storage(client, host):
    client.force_login(host)
    answer = client.post(reverse("logout"))
    assert answer.status_code == 302 and answer.url == reverse("home")
    # Chromium, Firefox and Safari 17+ empty the caches (the service worker's too) and the
    # storage (localStorage, the worker's registration); site.js does it for the others.
    assert answer["Clear-Site-Data"] == '"cache", "storage"'
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_log_out_button_asks_the_page_to_forget_the_device_s_copies(client, host):
    client.force_login(host)
    page = client.get(reverse("ledger:event_list")).content.decode()
    assert f'action="{reverse("logout")}"' in page and "data-logout" in page
