"""Every error of the API under /api/v1/ in one shape, from one place:

    {"errors": [{"code": ..., "article": ... or null, "message": ..., "field": ...}]}

`exception_handler` is DRF's EXCEPTION_HANDLER: the service's refusals (with their articles),
invalid input (each field named in people's words), parse errors, not found, permission
denied, throttling, oversize bodies and, logged with its traceback, anything unexpected. The
`not_found`, `bad_request`, `forbidden` and `server_error` views give the same shape to the
/api/ requests that Django answers before any API view runs (an unknown URL, for one). The web
pages answer a refusal from one place too (casino/refusals.py).
"""
from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.http import Http404, JsonResponse, QueryDict
from django.shortcuts import render
from django.utils.encoding import force_str
from django.utils.translation import gettext as _, gettext_noop
from django.views import defaults
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from casino.pit.errors import Refused
from casino.terms.vocabulary import localise

logger = logging.getLogger("casino.api")

API_PREFIX = "/api/"


def problem(code: str, message: str, *, field: str | None = None, article: str | None = None) -> dict:
    data = {"code": code, "article": article, "message": message}
    if field:
        data["field"] = field
    return data


class InvalidInput(exceptions.ValidationError):
    """A serializer's errors, with the serializer, so that each field is named by its label."""

    def __init__(self, serializer: serializers.BaseSerializer, detail=None):
        super().__init__(serializer.errors if detail is None else detail)
        self.serializer = serializer


def validated(serializer_class, data, **kwargs) -> dict:
    """The serializer's validated data, or InvalidInput naming each field by its label.

    A body holds only the fields its serializer writes, at every level: a key it does not know
    (a misspelt field, a field of the answer such as "state") is refused, named as it was sent,
    rather than dropped unread. A query string (a QueryDict) is not a body: it may carry other
    parameters (?page=, ?format=)."""
    serializer = serializer_class(data=data, **kwargs)
    unknown = {} if isinstance(data, QueryDict) else _unknown_keys(serializer, data)
    if not serializer.is_valid() or unknown:
        raise InvalidInput(serializer, _merge(serializer.errors, unknown))
    return serializer.validated_data


def _unknown_keys(field, data) -> dict:
    """{key: [error]} for each key of `data` that `field` (a serializer, or a list of them) does
    not write; nested as serializer errors are, an item of a list by its index."""
    if isinstance(field, serializers.ListSerializer) and isinstance(data, list):
        found = {index: _unknown_keys(field.child, item) for index, item in enumerate(data)}
        return {index: errors for index, errors in found.items() if errors}
    if not isinstance(field, serializers.Serializer) or not isinstance(data, dict):
        return {}
    writable = {name: child for name, child in field.fields.items() if not child.read_only}
    found = {}
    for key, value in data.items():
        if key not in writable:
            found[key] = [exceptions.ErrorDetail(_("this request has no such field."), code="unknown_field")]
        elif nested := _unknown_keys(writable[key], value):
            found[key] = nested
    return found


def _merge(errors, unknown: dict):
    """The serializer's errors (a dict, or a list of one per item) with the unknown keys' in their
    places. Where a field is refused as a whole (a list of messages), its messages stand alone."""
    if isinstance(errors, dict):
        return {**errors, **{key: _merge(errors[key], found) if key in errors else found
                             for key, found in unknown.items()}}
    if errors and all(isinstance(item, dict) for item in errors):
        return [_merge(item, unknown.get(index, {})) for index, item in enumerate(errors)]
    return errors


def _label(serializer, path: list[str]) -> str:
    """A field's path (["players", "0", "capital"]) in people's words: "Players › 1 › Capital";
    a key the serializer does not write, as it was sent (["players", "0", "age"]: "Players › 1 › age")."""
    words, field = [], serializer
    for part in path:
        if isinstance(field, serializers.ListSerializer):
            field = field.child
        if part.isdecimal():  # not isdigit: "²" is a digit that int() does not read
            words.append(str(int(part) + 1))
            continue
        fields = getattr(field, "fields", None)
        field = fields.get(part) if fields is not None else None
        if field is not None and field.read_only:  # a field of the answer, sent in a body: not the body's
            field = None
        # A key the serializer does not write is named as it was sent.
        words.append(force_str(field.label) if field is not None and field.label else part)
    return " › ".join(words)


def _flatten(detail, path=()):
    """(path, ErrorDetail) for each message of a nested ValidationError detail."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            yield from _flatten(value, path if key == "non_field_errors" else (*path, str(key)))
    elif isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            for item in detail:
                yield path, item
        else:
            for index, item in enumerate(detail):
                if item:
                    yield from _flatten(item, (*path, str(index)))
    else:
        yield path, detail


def _invalid(exc: exceptions.ValidationError, context: dict) -> list[dict]:
    serializer = getattr(exc, "serializer", None)
    query = context.get("request") is not None and serializer is None and isinstance(exc.detail, dict) \
        and context["request"].method in ("GET", "HEAD")
    found = []
    for path, detail in _flatten(exc.detail):
        code = getattr(detail, "code", None) or "invalid"
        if not path:
            found.append(problem(code, str(detail)))
            continue
        if serializer is not None:
            name = _label(serializer, list(path))
        elif query:  # a filter of the query string: named as it is typed in the URL
            name = _("filter ?%(name)s=") % {"name": ".".join(path)}
        else:
            name = " › ".join(p.replace("_", " ") if not p.isdigit() else str(int(p) + 1) for p in path)
        found.append(problem(code, f"{name}: {detail}", field=".".join(path)))
    return found or [problem("invalid", _("The request is not valid."))]


NOT_AUTHENTICATED = gettext_noop(
    "Log in first: in a browser at /accounts/login/, or send the header 'Authorization: Token <key>' with a "
    "key from POST /api/v1/auth/token/ (username and password).")


def errors_for(exc: Exception, context: dict) -> tuple[int, list[dict], dict] | None:
    """The status, the problems and the headers of an exception, or None if it is unexpected."""
    if isinstance(exc, Refused):  # the service's refusal, each message in the request's language
        problems = [{**found.as_dict(), "message": localise(found)} for found in exc.problems]
        return (status.HTTP_409_CONFLICT if exc.conflict else status.HTTP_400_BAD_REQUEST), problems, {}
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    elif isinstance(exc, RequestDataTooBig):
        return (status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
                [problem("too_large", _("The request's body is too large."))], {})
    elif isinstance(exc, SuspiciousOperation):
        return status.HTTP_400_BAD_REQUEST, [problem("bad_request", _("The request cannot be read."))], {}
    if not isinstance(exc, exceptions.APIException):
        return None
    headers = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None):
        headers["Retry-After"] = "%d" % exc.wait
    if isinstance(exc, exceptions.ValidationError):
        return exc.status_code, _invalid(exc, context), headers
    code = exc.get_codes() if isinstance(exc.detail, str) else exc.default_code
    message = str(exc.detail) if isinstance(exc.detail, str) else str(exc.default_detail)
    if isinstance(exc, exceptions.NotAuthenticated):
        message = f"{message} {_(NOT_AUTHENTICATED)}"
    request = context.get("request")
    invalid_page = (isinstance(exc, exceptions.NotFound) and message != str(exceptions.NotFound.default_detail)
                    and request is not None and "page" in request.GET)  # the paginator's own message
    field = "page" if invalid_page else None
    return exc.status_code, [problem(str(code), message, field=field)], headers


def exception_handler(exc: Exception, context: dict) -> Response:
    """DRF's EXCEPTION_HANDLER: every error in the one shape; an unexpected one is logged with
    its traceback and answered 500, still in the shape."""
    found = errors_for(exc, context)
    set_rollback()
    if found is None:
        logger.error("unhandled exception in %s", context.get("view").__class__.__name__, exc_info=exc)
        return Response({"errors": [problem("server_error", _("Something went wrong on the server; the error "
                                                              "is logged. Nothing was recorded."))]},
                        status=status.HTTP_500_INTERNAL_SERVER_ERROR)
    code, problems, headers = found
    return Response({"errors": problems}, status=code, headers=headers)


# --- Django's own error views, for /api/ requests no API view answered ---------------------------

def _api(request) -> bool:
    return request.path.startswith(API_PREFIX)


def not_found(request, exception=None):
    if _api(request):
        return JsonResponse({"errors": [problem("not_found", _("There is nothing at this address."))]},
                            status=status.HTTP_404_NOT_FOUND)
    return defaults.page_not_found(request, exception)


def bad_request(request, exception=None):
    if _api(request):
        code, problems, _headers = (exception is not None and errors_for(exception, {})) or (400, [], {})
        return JsonResponse({"errors": problems or [problem("bad_request", _("The request cannot be read."))]},
                            status=code)
    return defaults.bad_request(request, exception)


def forbidden(request, exception=None):
    if _api(request):
        return JsonResponse({"errors": [problem("permission_denied", str(exception or "") or
                                                _("You do not have permission to perform this action."))]},
                            status=status.HTTP_403_FORBIDDEN)
    # The web's refusal: a page in the person's language, with the site's menu and the view's reason.
    return render(request, "403.html", {"exception": str(exception or "")}, status=status.HTTP_403_FORBIDDEN)


def server_error(request):
    if _api(request):
        return JsonResponse({"errors": [problem("server_error", _("Something went wrong on the server; the "
                                                                  "error is logged. Nothing was recorded."))]},
                            status=status.HTTP_500_INTERNAL_SERVER_ERROR)
    return defaults.server_error(request)
