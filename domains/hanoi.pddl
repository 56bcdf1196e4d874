; Tower of Hanoi as the ASP Competition states it: pegs and discs are places,
; a disc may go onto a clear place that is larger than it (`smaller ?d ?p`),
; and pegs are larger than every disc. Instances come from `corvus asp
; translate`: disk i of the competition is the object d<i>, d1..d4 are pegs.
(define (domain hanoi)
  (:requirements :strips :typing)
  (:types place - object
          peg disc - place)
  (:predicates (on ?d - disc ?p - place)
               (clear ?p - place)
               (smaller ?d - disc ?p - place))
  (:action move
    :parameters (?d - disc ?from - place ?to - place)
    :precondition (and (on ?d ?from) (clear ?d) (clear ?to) (smaller ?d ?to))
    :effect (and (not (on ?d ?from)) (on ?d ?to)
                 (clear ?from) (not (clear ?to)))))
