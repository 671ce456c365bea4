"""Grading the assignments, on the teacher's side only: the marking of answers against
the key (:mod:`~rummykit.teach.grading.marking`), the values a submission hands back
(:mod:`~rummykit.teach.grading.values`), the child process each submission runs in
(:mod:`~rummykit.teach.grading.sandbox`), the class's grading run
(:mod:`~rummykit.teach.grading.run`) and the build of the student notebooks and the
autograder zips (:mod:`~rummykit.teach.grading.build`). Nothing here computes an answer:
the answers come from the key, which ships in the autograder zip only."""
