; From a to g: the direct road costs 10, the way over m 6, the way over b
; and c 3. Counting roads (unit costs), the direct road looks best.
(define (problem roads-detour)
  (:domain roads)
  (:objects a m b c g - city)
  (:init (at a)
         (road a g) (= (road-length a g) 10)
         (road a m) (= (road-length a m) 3) (road m g) (= (road-length m g) 3)
         (road a b) (= (road-length a b) 1) (road b c) (= (road-length b c) 1)
         (road c g) (= (road-length c g) 1)
         (road b a) (= (road-length b a) 1) (road m a) (= (road-length m a) 3)
         (= (total-cost) 0))
  (:goal (at g))
  (:metric minimize (total-cost)))
