% The example of the ASP Competition's Tower of Hanoi page: five discs
% (5..9) on peg 1; in the goal discs 8 and 9 are on peg 2. Exactly 3 moves.
steps(3). time(0). time(1). time(2). time(3). disk(1). disk(2). disk(3). disk(4). disk(5). disk(6). disk(7). disk(8). disk(9). on0(5,1). on0(6,5). on0(7,6). on0(8,7). on0(9,8). ongoal(5,1). ongoal(6,5). ongoal(7,6). ongoal(8,2). ongoal(9,8).
