"""Filled in with the services."""
