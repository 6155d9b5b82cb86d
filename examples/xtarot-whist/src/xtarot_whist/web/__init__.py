"""The web table layout of whist: ``whist.js`` and ``whist.css``, served by xtarot."""
