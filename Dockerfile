# The server image: one uvicorn process per container; scale with replicas behind a proxy.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
# No per-message deflate: it doubled an idle connection's memory (docs/performance.md).
ENV UVICORN_WS_PER_MESSAGE_DEFLATE=false
WORKDIR /srv/labyrinth

COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
RUN pip install . && useradd --system --home /srv/labyrinth labyrinth && chown -R labyrinth /srv/labyrinth
USER labyrinth

EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz').status != 200)"
# X-Forwarded-For is believed only from these addresses: the proxy's, set by the compose
# file (never "*": any client could then pick the address the per-address limits count).
ENV FORWARDED_ALLOW_IPS=127.0.0.1
# uvicorn through app/web/serve.py (header deadline, keep-alive, concurrency limit, proxy
# headers); it closes WebSockets with 1012 (service restart) on SIGTERM; clients reconnect.
CMD ["python", "-m", "app.web.serve", "--host", "0.0.0.0", "--port", "8000"]
