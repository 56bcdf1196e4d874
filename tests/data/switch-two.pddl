; Both lamps on, but the fuse burns out after the first: unsolvable, though
; the delete relaxation reaches the goal, so only search can prove it.
(define (problem switch-two) (:domain switches)
  (:objects a b - lamp)
  (:init (off a) (off b) (wired a) (wired b) (fuse-ok))
  (:goal (and (on a) (on b))))
