"""Readers and writers for the file formats parsers read and write."""
