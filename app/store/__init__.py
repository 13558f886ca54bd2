"""Storage: the only package that talks SQL. Everything else calls the repository."""
