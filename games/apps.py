"""The games' app: baccarat without money."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Baccarat"
