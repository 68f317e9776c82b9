"""The site's URLs: its own pages (home, the installable app's files, the offline page),
then each app's."""

from django.contrib import admin
from django.contrib.auth.decorators import login_not_required
from django.urls import include, path
from django.views.generic import TemplateView
from django.views.i18n import set_language

from games.urls import display_patterns
from shoebook import accounts
from shoebook.views import logout, offline_page, service_worker, web_manifest
from tournaments.table_urls import live_patterns

urlpatterns = [
    path(
        "",
        login_not_required(TemplateView.as_view(template_name="home.html")),
        name="home",
    ),
    path("manifest.webmanifest", web_manifest, name="web_manifest"),
    path("service-worker.js", service_worker, name="service_worker"),
    path("offline/", offline_page, name="offline"),
    path("rules/", include("games.urls")),
    path("display/", include((display_patterns, "display"))),
    path("language/", login_not_required(set_language), name="set_language"),
    # Password reset only with a mail server (shoebook.accounts); the rest of Django's accounts.
    path("accounts/password_reset/", accounts.password_reset, name="password_reset"),
    path("accounts/password_reset/done/", accounts.password_reset_done, name="password_reset_done"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        accounts.password_reset_confirm,
        name="password_reset_confirm",
    ),
    path("accounts/reset/done/", accounts.password_reset_complete, name="password_reset_complete"),
    path("accounts/logout/", logout, name="logout"),  # before Django's: it clears the device
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("tournaments/table/", include(("tournaments.table_urls", "tournament_table"))),
    path("tournaments/reports/", include(("tournaments.report_urls", "tournament_reports"))),
    path("tournaments/", include(("tournaments.urls", "tournaments"))),
    path("", include((live_patterns, "live"))),
    path("", include("ledger.urls")),
]

handler400 = "shoebook.views.bad_request"
handler500 = "shoebook.outages.server_error"
