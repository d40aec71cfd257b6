"""Rows that are only ever added, and rows of which some fields are set once.

Every app's ledger-like models build on these two bases (the lowest module of the project: it
imports only Django). On PostgreSQL the database's triggers guard the same rules against writes
that bypass the models (each app's migrations); these bases give the application's own code a
clear error first: what the row is, that it is never changed (or deleted), and, where a model
says it in `INSTEAD`, what a person does instead ("a correction is an amendment").
"""
from django.core.exceptions import ValidationError
from django.db import models


def _refusal(row: models.Model, message: str) -> ValidationError:
    instead = getattr(row, "INSTEAD", "")
    return ValidationError(f"{row._meta.verbose_name} {row.pk} {message}" + (f"; {instead}" if instead else ""))


class AppendOnly(models.Model):
    """A row that is only ever added: never changed, never deleted."""

    INSTEAD = ""  # what a person does instead of changing the row, said with the refusal

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise _refusal(self, "is append-only: it is never changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise _refusal(self, "is append-only: it is never deleted")


class SetOnce(models.Model):
    """A row added once, of which only the fields named in `SET_ONCE` are ever set, once each,
    after it was added (a flag's resolution, a rotation entry's end). Everything else stays as
    it was added, and the row is never deleted."""

    SET_ONCE: tuple[str, ...] = ()  # attribute names (`resolved_by_id`, not `resolved_by`)
    INSTEAD = ""  # what a person does instead of deleting the row, said with the refusal

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            fixed = [f.attname for f in self._meta.concrete_fields if f.attname not in self.SET_ONCE]
            stored = type(self)._base_manager.filter(pk=self.pk).values(*fixed, *self.SET_ONCE).first()
            if stored is None:
                raise ValidationError(f"{self._meta.verbose_name} {self.pk} does not exist")
            if any(stored[name] not in (None, "") and stored[name] != getattr(self, name) for name in self.SET_ONCE):
                raise ValidationError(f"{self._meta.verbose_name} {self.pk}: {', '.join(self.SET_ONCE)} "
                                      "is set once and never changed again")
            if any(stored[name] != getattr(self, name) for name in fixed):
                raise ValidationError(f"{self._meta.verbose_name} {self.pk}: only {', '.join(self.SET_ONCE)} "
                                      "is ever set; the rest stays as it was added")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise _refusal(self, "is never deleted")
