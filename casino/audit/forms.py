"""The inspector's two small forms: a comment on a flag, and the note that resolves it."""
from django import forms
from django.utils.translation import gettext_lazy as _


class CommentForm(forms.Form):
    note = forms.CharField(label=_("Your comment"), max_length=4000, widget=forms.Textarea(attrs={"rows": 3}))


class ResolveForm(forms.Form):
    note = forms.CharField(label=_("What was found (the resolution)"), max_length=4000,
                           widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "resolve_%s")  # the comment form on the same page has its own `note`
        super().__init__(*args, **kwargs)
