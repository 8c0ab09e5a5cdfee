# Part of the security section: --cacert replaces the system's CA store
# instead of adding to it. As root, the self-signed certificate of the HTTPS
# server above is planted in the system's CA directory (and removed after):
# without --cacert it is then trusted, and with --cacert naming another CA it
# must not be.
cacert_check() {
  if [[ $(id -u) != 0 || -z ${https_url:-} || ! -d /etc/ssl/certs ]]; then
    pass "--cacert replaces the system store" "skipped (needs root and the HTTPS server above)"
    return
  fi
  local hash planted link other
  hash=$(openssl x509 -hash -noout -in "$work/cert.pem")
  planted=/etc/ssl/certs/tpns-stress-$$.pem
  for n in 0 1 2 3 4 5 6 7 8 9; do
    [[ -e /etc/ssl/certs/$hash.$n ]] || { link=/etc/ssl/certs/$hash.$n; break; }
  done
  cp "$work/cert.pem" "$planted" && ln -s "$planted" "$link"
  openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=other-ca \
    -keyout "$work/other-key.pem" -out "$work/other.pem" 2>/dev/null
  TPNS_STORE=$work/cacert/state.plist "$tpns" register "$token" --server "$https_url" \
    >"$work/out" 2>"$work/err"
  local system=$?
  TPNS_STORE=$work/cacert/state.plist "$tpns" register "$token" --server "$https_url" \
    --cacert "$work/other.pem" >"$work/out" 2>"$work/err"
  local replaced=$?
  local refusal
  refusal=$(grep -m1 '^Error' "$work/err")
  rm -f "$link" "$planted"
  if ((system == 0 && replaced != 0)) && grep -qi 'certificate' <<<"$refusal"; then
    pass "--cacert replaces the system store" "trusted through the system store (exit 0); with --cacert of another CA: exit $replaced ($refusal)"
  else
    fail "--cacert replaces the system store" "through the system store: exit $system; with --cacert of another CA: exit $replaced ($(head -1 "$work/err"))"
  fi
}
cacert_check
