"""What every app may import from the project: who may do what (``roles``), ids in URLs
(``converters``), settings read from the environment (``env``), a private link's answer and its
token compare (``links``), the installable app's manifest (``webapp``). Nothing here imports an
app, the settings or the URLs: the site's roof (``shoebook.settings``, ``shoebook.urls``) stands
on this ground, never the reverse."""
