# Sourced by Scripts/bench.sh and Scripts/bench-server.sh: the baseline they
# measure the emulator against. start_nginx WORK starts nginx serving a small
# static file on 127.0.0.1 (own prefix and config under WORK/nginx, the first
# free port from 28080, two workers, no access log), waits until it answers,
# and sets nginx_port and nginx_pid.
start_nginx() {
  local work=$1
  nginx_port=28080
  while (exec 3<>"/dev/tcp/127.0.0.1/$nginx_port") 2>/dev/null; do
    nginx_port=$((nginx_port + 1))
    if ((nginx_port > 28180)); then
      echo "Error: no free port for nginx" >&2
      exit 1
    fi
  done
  mkdir -p "$work/nginx/www" "$work/nginx/logs" "$work/nginx/tmp"
  # nginx workers run as nobody when started by root: let them read the file.
  chmod a+rx "$work" "$work/nginx" "$work/nginx/www"
  printf 'ok\n' >"$work/nginx/www/index.txt"
  cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 2;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx/tmp/body;
  proxy_temp_path $work/nginx/tmp/proxy;
  fastcgi_temp_path $work/nginx/tmp/fastcgi;
  uwsgi_temp_path $work/nginx/tmp/uwsgi;
  scgi_temp_path $work/nginx/tmp/scgi;
  default_type text/plain;
  server { listen 127.0.0.1:$nginx_port; root $work/nginx/www; }
}
CONF
  nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/logs/error.log" &
  nginx_pid=$!
  for _ in $(seq 100); do
    curl -fsS -o /dev/null "http://127.0.0.1:$nginx_port/index.txt" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "Error: nginx did not answer on port $nginx_port" >&2
  exit 1
}
