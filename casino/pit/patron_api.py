"""The players' API under /api/v1/players/ (docs/api.md, docs/patrons.md).

- GET /players/ and /players/{id}/ (pit.view_patron): inspectors and managers get every player
  with his personal data, each document number returned logged as read (`DocumentRead`);
  a supervisor gets the players who sat at his tables, by name, the document number masked and
  no date of birth. ?q= searches by name (and by document number for inspectors and managers).
- POST /players/ (pit.add_patron): a new player, by name alone or with his identification.
- POST /players/{id}/identify/ (pit.identify_patron): record what identifies him, as the page
  does: a supervisor for a player at his table in a game in progress, an inspector or manager.

Errors come back in the API's one shape (casino/api_errors.py): a malformed document is a 400
naming `document_type`, `document_number` or `document_country`.
"""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.utils.translation import gettext as _, gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from casino.api_errors import validated

from . import patrons, privacy
from .access import require, visible_tables
from .documents import normalise
from .models import Casino, Patron
from .serializers import OwnCasinosField

ROUTE = "api:players"


class PatronSerializer(serializers.ModelSerializer):
    """A player as the reader may see him: personal data for inspectors and managers (the
    document number read logged), the name and a masked document number for a supervisor."""

    document_number = serializers.SerializerMethodField(help_text="in full for inspectors and managers (each "
                                                                  "read logged); masked for supervisors")
    date_of_birth = serializers.SerializerMethodField(help_text="inspectors and managers only; null otherwise")
    identified = serializers.BooleanField(read_only=True)
    missing_identification = serializers.ListField(child=serializers.CharField(), read_only=True,
                                                   help_text="the fields still needed to identify him")

    class Meta:
        model = Patron
        fields = ["id", "casino", "name", "document_type", "document_number", "document_country", "date_of_birth",
                  "nationality", "identified", "missing_identification", "created_at", "created_by", "changed_at",
                  "changed_by", "anonymised_at"]

    def _user(self):
        return self.context["request"].user

    def get_document_number(self, patron: Patron) -> str:
        return privacy.read_document(self._user(), patron, ROUTE)

    def get_date_of_birth(self, patron: Patron) -> str | None:
        if patron.date_of_birth is None or not privacy.sees_personal_data(self._user()):
            return None
        return patron.date_of_birth.isoformat()

    def to_representation(self, patron: Patron) -> dict:
        """A supervisor gets what his page shows: the name and whether the player is identified;
        the document's type and country and the nationality are null for him, as the date of birth."""
        data = super().to_representation(patron)
        if not privacy.sees_personal_data(self._user()):
            data.update(document_type=None, document_country=None, nationality=None)
        return data


class IdentityInputSerializer(serializers.Serializer):
    document_type = serializers.ChoiceField(choices=Patron.DOCUMENT_TYPES, required=False, allow_blank=True,
                                            default="", label=gettext_lazy("Identity document"))
    document_number = serializers.CharField(max_length=30, required=False, allow_blank=True, default="",
                                            label=gettext_lazy("Document number"))
    document_country = serializers.CharField(max_length=2, required=False, allow_blank=True, default="",
                                             label=gettext_lazy("Issuing country"),
                                             help_text="ISO 3166-1 alpha-2 code, e.g. MO")
    date_of_birth = serializers.DateField(required=False, allow_null=True, default=None,
                                          label=gettext_lazy("Date of birth"))
    nationality = serializers.CharField(max_length=2, required=False, allow_blank=True, default="",
                                        label=gettext_lazy("Nationality"), help_text="ISO 3166-1 alpha-2 code")


class PatronInputSerializer(IdentityInputSerializer):
    casino = OwnCasinosField(casino="pk", queryset=Casino.objects.all(), label=gettext_lazy("Casino"))
    name = serializers.CharField(max_length=100, allow_blank=True, label=gettext_lazy("Name"))


class PatronViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    queryset = Patron.objects.all()
    serializer_class = PatronSerializer

    def get_queryset(self):
        require(self.request.user, "pit.view_patron")
        found = privacy.readable_patrons(self.request.user).order_by("-created_at", "-pk")
        query = " ".join(self.request.query_params.get("q", "").split())
        if query and self.action == "list":
            match = Q(name__icontains=query)
            if privacy.sees_personal_data(self.request.user):
                match |= Q(document_number=normalise(Patron.HONG_KONG_ID, query)) | Q(
                    document_number=normalise(Patron.PASSPORT, query))
            found = found.filter(match)
        return found

    @extend_schema(parameters=[OpenApiParameter("q", str, description="part of a name, or (inspectors and "
                                                                      "managers) a document number")])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @extend_schema(request=PatronInputSerializer, responses={201: PatronSerializer})
    def create(self, request):
        """A new player: a name alone will do below the large-transaction threshold."""
        require(request.user, "pit.add_patron")
        data = dict(validated(PatronInputSerializer, request.data, context={"request": request}))
        if not visible_tables(request.user).filter(casino=data["casino"]).exists():  # not his casino's player
            raise PermissionDenied(_("Your role does not allow this."))
        patron = patrons.create_patron(user=request.user, **data)
        return Response(PatronSerializer(patron, context=self.get_serializer_context()).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(request=IdentityInputSerializer, responses={200: PatronSerializer})
    @action(detail=True, methods=["post"])
    def identify(self, request, pk=None):
        """Record what identifies the player (DICJ Instruction n.º 1/2016): every field is needed."""
        require(request.user, "pit.identify_patron")
        patron = self.get_object()
        if not (privacy.sees_personal_data(request.user) or privacy.witnesses(request.user, patron)):
            raise PermissionDenied(_("You identify only a player seated at your table in a game in progress."))
        patron = patrons.identify(patron=patron, user=request.user, **validated(IdentityInputSerializer, request.data))
        return Response(PatronSerializer(patron, context=self.get_serializer_context()).data)
