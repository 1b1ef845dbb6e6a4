"""Example workflows (``*.ows``) shown in Orange under Help > Example Workflows."""
