; Two lamps to switch off, one here and one two rooms away: 4 steps.
(define (problem lights-off) (:domain lights)
  (:objects r1 r2 r3 - room l1 l2 - lamp)
  (:init (at r1) (in l1 r1) (in l2 r3) (on l1) (on l2)
         (door r1 r2) (door r2 r1) (door r2 r3) (door r3 r2))
  (:goal (and (not (on l1)) (not (on l2)))))
