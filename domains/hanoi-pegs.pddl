; Tower of Hanoi with every disc located by its peg: a disc may move from its
; peg to another when no smaller disc is on either peg (`smaller ?s ?d`: ?s is
; smaller than ?d). Where `hanoi.pddl` says what each disc sits on, this model
; says only where it is, which is all a state of the puzzle needs: the discs on
; a peg are stacked by size. Its finite-domain variables are the discs' pegs,
; so pattern databases over sets of discs and decision diagrams over the
; discs' pegs are exact and small. `corvus asp solve` searches this model and
; writes the plan back as moves of `hanoi.pddl` (disc, what it sat on, what it
; is put on) before it checks it; disk i of the competition is the object d<i>,
; d1..d4 are the pegs.
(define (domain hanoi-pegs)
  (:requirements :typing :equality :negative-preconditions :disjunctive-preconditions
                 :universal-preconditions)
  (:types peg disc)
  (:predicates (at ?d - disc ?p - peg) (smaller ?s - disc ?d - disc))
  (:action move
    :parameters (?d - disc ?from ?to - peg)
    :precondition (and (at ?d ?from) (not (= ?from ?to))
                       (forall (?s - disc)
                         (imply (smaller ?s ?d) (and (not (at ?s ?from)) (not (at ?s ?to))))))
    :effect (and (not (at ?d ?from)) (at ?d ?to))))
