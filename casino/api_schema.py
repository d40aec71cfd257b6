"""The API's OpenAPI schema (drf-spectacular) documents every operation's errors, in the one
error shape (casino/api_errors.py): settings' DEFAULT_SCHEMA_CLASS is `AutoSchema`. The pit adds
the portable record's component (casino/pit/schema.py).
"""
from __future__ import annotations

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiResponse

from casino.pit.serializers import ErrorsSerializer

ERRORS = {
    400: "the request or the record breaks a rule: each error with its field and article",
    401: "not logged in: log in at /accounts/login/, or send 'Authorization: Token <key>' "
         "(POST /api/v1/auth/token/)",
    403: "the role or the table assignment does not allow it",
    404: "no such object among those this user may see, or no such page",
    409: "clashes with the ledger's state (a game in progress, a closed table or day, a used idempotency key)",
    413: "the body is too large",
    415: "the body is not JSON",
    429: "too many requests: try again after Retry-After seconds",
}


class AutoSchema(SpectacularAutoSchema):
    """Every operation documents its errors in the one error shape: 401, 403, 404 (a detail
    route, or a page past the end) and 429 everywhere; 400 where it takes a body, a filter or a
    page; 409, 413 and 415 where it writes."""

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        codes = {401, 403, 404, 429}
        if self.method == "POST":
            codes |= {400, 409, 413, 415}
        elif self._is_list_view() or self.get_filter_backends():
            codes.add(400)
        for code in sorted(codes):
            responses.setdefault(str(code), self._get_response_for_code(
                OpenApiResponse(ErrorsSerializer, description=ERRORS[code]), str(code), direction=direction))
        return responses
