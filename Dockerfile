# gateway-sandbox: the sandbox served by gunicorn (one process, eight threads).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY sandbox ./sandbox
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 sandbox \
    && mkdir /data && chown sandbox /data

USER sandbox
VOLUME /data
EXPOSE 8000

HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/sandbox/health', timeout=2).status != 200)"]

CMD ["gateway-sandbox", "serve", "--host", "0.0.0.0", "--port", "8000", "--data", "/data/sandbox.json"]
