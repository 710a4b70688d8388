# What the doc-commands test runs before each block: stop at the first failing command, and curl as the
# reader runs it, but failing on a 5xx or no answer (the status is written after the body, checked, and
# taken off the output; the reader's own -w comes first and is overridden).
set -euo pipefail
curl() {
  local out status
  out=$(command curl "$@" -sS -w '\n%{http_code}') || return $?
  status=${out##*$'\n'}
  printf '%s\n' "${out%$'\n'*}"
  if [ "$status" -ge 500 ] || [ "$status" = "000" ]; then
    echo "HTTP $status from curl $*" >&2
    return 1
  fi
}
