"""The engine's sentences, translatable without Django.

`gettext_noop` (xgettext knows the name) marks a template for the catalogues and
returns it as a `Phrase`; a `Sentence` is a template with its values, English when
printed. The web layer translates both (games/errors.py); the engine stays English.
"""


class Phrase(str):
    """A marked template or fixed wording: the web layer looks it up in the catalogue."""


def gettext_noop(template: str) -> Phrase:
    return Phrase(template)


class Sentence(str):
    """`template.format(**params)` in English, keeping both for translation."""

    template: Phrase
    params: dict

    def __new__(cls, template: str, **params):
        text = super().__new__(cls, template.format(**params))
        text.template, text.params = Phrase(template), params
        return text


def translate(text, gettext) -> str:
    """`text` (a Sentence, Phrase or plain str) with its marked parts through `gettext`."""
    if isinstance(text, Sentence):
        params = {k: translate(v, gettext) for k, v in text.params.items()}
        return gettext(text.template).format(**params)
    if isinstance(text, Phrase):
        return gettext(text)
    return text
