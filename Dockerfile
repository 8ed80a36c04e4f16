# A small image that runs the service. Build: docker build -t puzzlegen .  Run: docker run -p 8000:8000 puzzlegen
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    DATABASE_URL=sqlite:////data/puzzles.db
WORKDIR /srv

COPY pyproject.toml README.md ./
COPY app ./app
COPY generators ./generators
COPY solvers ./solvers
RUN pip install . && useradd --system --uid 10001 puzzles && mkdir /data && chown puzzles /data

USER puzzles
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"
CMD ["uvicorn", "app.main:app", "--host", "0.0.0.0", "--port", "8000", "--no-access-log"]
