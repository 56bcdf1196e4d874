(define (problem switch-one) (:domain switches)
  (:objects a b - lamp)
  (:init (off a) (off b) (wired a) (wired b) (fuse-ok))
  (:goal (on a)))
