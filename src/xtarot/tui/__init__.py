"""The full-screen terminal app (Textual): ``xtarot play`` and ``xtarot replay`` on
a terminal.  An interface layer like :mod:`xtarot.cli`, whose play session and
screens it shows (:mod:`xtarot.tui.play`, :mod:`xtarot.tui.replay`; the regions both
draw, :mod:`xtarot.tui.board`)."""
