# Sourced by scripts/serve and scripts/test: a project virtualenv that follows pyproject.toml.
ensure_venv() {
  local extra="${1:-}" stamp want
  [ -x .venv/bin/python ] || python3 -m venv .venv
  want="$(sha256sum pyproject.toml | cut -c1-16)${extra:+-$extra}"
  stamp=.venv/.installed
  if [ ! -f "$stamp" ] || ! grep -qx -- "$want" "$stamp"; then
    .venv/bin/python -m pip install -q --upgrade pip >/dev/null
    if [ -n "$extra" ]; then
      .venv/bin/python -m pip install -q -e ".[$extra]"
    else
      .venv/bin/python -m pip install -q -e .
    fi
    echo "$want" >>"$stamp"
  fi
}
