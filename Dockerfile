# A small image that runs the service. Build: docker build -t puzzlegen .  Run: docker run -p 8000:8000 puzzlegen
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    DATABASE_URL=sqlite:////data/puzzles.db NUMBA_CACHE_DIR=/srv/numba-cache

# The package is installed from a copy of the source that is removed again: the image runs what the wheel
# carries, as a pip user would (tests/operations/test_shipped.py runs the same install without Docker).
COPY pyproject.toml README.md constraints.txt /tmp/source/
COPY app /tmp/source/app
COPY generators /tmp/source/generators
COPY solvers /tmp/source/solvers
COPY pictures /tmp/source/pictures
# Compile every type's numba code into numba's cache at build time, so no container compiles it at start-up
# (the cache stays writable: numba recompiles if the host's CPU differs from the build machine's). The
# warm-up runs from an empty folder, so it compiles the installed modules, the ones the server loads.
WORKDIR /srv
RUN pip install -c /tmp/source/constraints.txt /tmp/source && rm -rf /tmp/source \
    && python -m app.warm \
    && useradd --system --uid 10001 puzzles && mkdir /data && chown -R puzzles /data /srv/numba-cache

USER puzzles
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"
CMD ["uvicorn", "app.main:app", "--host", "0.0.0.0", "--port", "8000", "--no-access-log", "--no-proxy-headers"]
