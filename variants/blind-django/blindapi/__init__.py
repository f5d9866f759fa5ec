"""Blind Django/DRF implementation of the public API v1 (written from the API document only)."""
