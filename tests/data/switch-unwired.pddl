; Lamp b is not wired: its goal is unreachable even in the relaxation.
(define (problem switch-unwired) (:domain switches)
  (:objects a b - lamp)
  (:init (off a) (off b) (wired a) (fuse-ok))
  (:goal (on b)))
