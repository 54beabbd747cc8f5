"""The start of a lesson page (notebooks/tutorial/NN-*.ipynb): the page's language, then the lesson's header.

A lesson page is a Voila page of its own (its own kernel). Its language comes from its link, ``?lang=de``, read by
the app's own reader of links (`widgets.app.parse_links`, only its ``lang``): es, de, cs, ro, fa, or the
pseudo-locale xx; English when the link names none; an unknown code gives a one-line note (class
``rook-link-message``) and English. `start_lesson` sets it as the page's language
(`widgets.lessons.set_page_language`), so every lesson widget of the page is drawn in it and the links to other
lessons carry it; a right-to-left language (Persian) lays the page out from the right (`widgets.lessons.RTL_STYLE`:
the lesson widgets carry the class ``rook-rtl``; card pictures and card codes stay left to right).

Kept apart from `widgets.lessons` because `widgets.app` imports that module (no import cycle).
"""
from __future__ import annotations

from html import escape

import ipywidgets as widgets

from rookcore import learners
from widgets import lessons
from widgets.learner import LearnerId
from widgets.app import page_language


def start_lesson(slug: str, query: str | None = None, progress: lessons.Progress | None = None) -> widgets.VBox:
    """Open lesson ``slug`` ("03-nest-and-trump") in the language of the page's link (`page_language`): set it for
    the page, mark the lesson visited and return the page's head (the right-to-left style when needed, a note for
    an unknown ``?lang=``, the lesson's header `widgets.lessons.start_lesson`), class ``rook-lesson-head``.

    Progress (``progress`` None) is each learner's own: under JupyterHub the signed-in user's
    (`rookcore.learners.hub_learner`, in their home folder) at once, else the browser's learner id's once it is
    reported (`_learner_id`).

    Args: ``slug``; ``query`` (None: Voila's ``QUERY_STRING``); ``progress`` (None: `widgets.lessons.PROGRESS`).
    Returns the VBox. Raises nothing (an unknown slug is shown as its own title)."""
    lang, notes = page_language(query)
    lessons.set_page_language(lang)
    parts = [widgets.HTML(lessons.RTL_STYLE, layout=widgets.Layout(display="none"))]
    if notes:
        note = widgets.HTML("".join(f"<div style='color:#b71c1c'>⚠ {escape(n)}</div>" for n in notes))
        note.add_class("rook-link-message")
        parts.append(note)
    parts.append(lessons.start_lesson(slug, progress))
    if progress is None and lessons.PROGRESS.path is None and learners.learners_dir() is not None:
        hub = learners.hub_learner()  # JupyterHub (issue 31): the signed-in user's own progress, no browser id
        if hub is not None:
            lessons.use_learner_progress(hub)
        else:
            parts.append(_learner_id())
    head = widgets.VBox(parts)
    head.add_class("rook-lesson-head")
    return head


def _learner_id() -> LearnerId:
    """The browser's learner id (`widgets.learner.LearnerId`, as on the app's page): once it is reported, the
    page keeps its progress in that learner's own file (`widgets.lessons.use_learner_progress`; a bad id gets a
    fresh one, given back: `widgets.learner.LearnerId.on_learner`); the lesson's visit, recorded in memory when the
    page opened, is carried into that file (`widgets.lessons.Progress.move_to`). Until then progress stays in
    memory."""
    tracker = LearnerId()
    tracker.on_learner(lambda learner, _stored: lessons.use_learner_progress(learner))
    return tracker
