(define (problem switch-broken) (:domain switches)
  (:objects a b - lamp)
  (:init (off a) (off b) (wired a) (fuse-ok)
  (:goal (on b))
