"""What a text too long for its box becomes: a list of names by initials, a sentence with its
player's name shortened first.

``text.fit`` cuts a text's end off with a '.', which is right for one word (a name) and wrong
for a list ("+1 Ann, Bob, Cleo, D." drops Eve, who scored) or a question (the part after the
name is the part that matters). Apart from ``text`` so that a screen that never needs these
(the home menu, Contrast's table) does not hold them in RAM: on a Pico every function of a
loaded module stays on the heap. (A message over several lines: ``dialogs.wrap``.)
"""

from tablemate.ui import text


def abbreviate(s, max_width, font=text.SMALL, name=True):
    """``s`` within ``max_width`` pixels: its first word, a player's name (``name``), shortened
    to as little as its initial and a '.' ("Cle.: swap hands with?"), the rest kept whole;
    then the longest other words, to no fewer than four letters ("B. Periph. Vision",
    "Tie: Wolfg., Beatrix"); ``fit`` only when even that is not enough.

    ``fit`` cuts the end off, which in a card row or a question is the part that matters."""
    if text.ink_width(s, font) <= max_width:
        return s
    sp = s.find(" ")
    if name and sp > 0:
        word = s[:sp]
        rest = s[sp:]
        mark = word[len(word.rstrip(":,")):]  # "Wolfgang: who..." keeps its ":"
        word = word[:len(word) - len(mark)]
        room = max_width - text.width(mark + rest, font)
        if room >= text.width("W.", font):
            return text.fit(word, room, font) + mark + rest
        s = word[:1] + "." + mark + rest
    words = s.split(" ")  # the first is the name, or a lead that says what this is ("Tie:")
    while text.ink_width(s, font) > max_width and len(words) > 1:
        i = 1
        for k in range(2, len(words)):
            if len(words[k]) > len(words[i]):
                i = k
        if len(words[i]) <= 5:
            break
        w = words[i]
        mark = w[len(w.rstrip(".:,?!")):]
        core = w[:len(w) - len(mark)]
        words[i] = core[:-1] + "." + mark.lstrip(".")
        s = " ".join(words)
    return text.fit(s, max_width, font)


def names(lead, names, width=text.SCREEN_WIDTH, sep=", ", tail="", font=text.SMALL):
    """``lead``, the names joined by ``sep``, then ``tail``, as fits ``width`` pixels: whole,
    else each name by its initial ("+1 A, B, C, D, E"), else their count ("+1 5 players").

    ``fit`` would cut such a line after the names that fit and drop the rest without a trace
    ("+1 Ann, Bob, Cleo, D." for five who scored); a player must find their name, or at
    least learn that nobody was left out."""
    for short in (False, True):
        s = lead + sep.join([n[:1] for n in names] if short else names) + tail
        if text.ink_width(s, font) <= width:
            return s
    return text.fit("%s%d players%s" % (lead, len(names), tail), width, font)
